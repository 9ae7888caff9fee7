"""Codemods that patch the user's exact code, one module per edit (named by the edit it
makes); `plan.build` turns a rule's ranked plans into checked Fixes."""
