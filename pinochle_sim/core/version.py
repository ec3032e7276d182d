"""The package version (the records' behaviour version is the engines' ``ENGINE_VERSION``)."""

__version__ = "0.1.0"
