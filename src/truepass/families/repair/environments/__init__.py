"""Python environments of repository-level repair samples, built from what each repository
declares, without Docker (docs/environments.md).

* :mod:`.spec`: :class:`~.spec.EnvSpec`, what an environment is made of (a sample carries it, so
  any machine, a Dask worker too, builds the same one from it) and its content key;
* :mod:`.declared`: reads a repository's own declarations (``uv.lock``, pinned requirement
  files, ``pyproject.toml``, or an explicit ``environments.toml``) into an :class:`~.spec.EnvSpec`,
  resolving with ``uv`` (the trusted resolver; no package's code runs);
* :mod:`.uvtool`: the trusted steps: ``uv`` with the machine's own package sources (resolving
  with ``--no-build``, installing wheels), interpreters, the cache directory and its locks;
* :mod:`.backend`: a project's build backend called in the sandbox (PEP 517/660 hooks);
* :mod:`.sdists`: packages without a wheel, downloaded by the trusted process and built from
  their sdists in the sandbox;
* :mod:`.build`: builds and caches environments: wheels installed by ``uv`` (no package's code
  runs), then the project's own build backend and compiled extensions, offline in the sandbox;
* :mod:`.store`: the cache of built environments (``truepass envs list|prune``).
"""
