"""The bundled ruleset texts, shipped as package data."""
