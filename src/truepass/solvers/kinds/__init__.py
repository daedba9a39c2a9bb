"""The built-in solver kinds, one module each, every one defining ``KINDS`` (and ``ORDER``, its
place in ``--help``). Families add their own in ``families/NAME/solvers``; plug-ins through the
``truepass.solvers`` entry points (:mod:`truepass.solvers.registry`)."""
