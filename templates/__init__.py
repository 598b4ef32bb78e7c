"""Bundled Jinja templates (installed as printgen.templates); a user folder is searched first."""
