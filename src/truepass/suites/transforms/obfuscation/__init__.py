"""Implementation of :mod:`truepass.suites.transforms.obfuscate`: analysis (``collect``,
``plan``) and rewrite (``rewrite``) over a shared model (``facts``).
"""
