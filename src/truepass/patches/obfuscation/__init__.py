"""Implementation of :mod:`truepass.patches.obfuscate`: analysis (``collect``, ``plan``) and
rewrite (``rewrite``) over a shared model (``facts``).
"""
