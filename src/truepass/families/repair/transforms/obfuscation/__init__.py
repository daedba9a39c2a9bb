"""Implementation of :mod:`truepass.families.repair.transforms.obfuscate`: analysis (``collect``,
``plan``) and rewrite (``rewrite``) over a shared model (``facts``).
"""
