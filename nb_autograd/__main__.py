"""`python -m nb_autograd diagnose|fix PATH`: the same as the `nb-autograd` command."""
from .cli import main

raise SystemExit(main())
