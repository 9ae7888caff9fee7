"""Rendering only: a view never decides a cause."""
