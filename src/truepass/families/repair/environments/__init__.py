"""Python environments of repository-level repair samples, built from what each repository
declares, without Docker (docs/environments.md).

* :mod:`.spec`: :class:`~.spec.EnvSpec`, what an environment is made of (a sample carries it, so
  any machine, a Dask worker too, builds the same one from it) and its content key;
* :mod:`.declared`: reads a repository's own declarations (``uv.lock``, pinned requirement
  files, ``pyproject.toml``, or an explicit ``environments.toml``) into an :class:`~.spec.EnvSpec`,
  resolving with ``uv`` (the trusted resolver; no package's code runs);
* :mod:`.uvtool`: the ``uv`` command line, with the machine's own package sources;
* :mod:`.build`: builds and caches environments: wheels installed by ``uv`` (no package's code
  runs), then the project's own build backend and compiled extensions, offline in the sandbox;
* :mod:`.store`: the cache of built environments (``truepass envs list|prune``).
"""
