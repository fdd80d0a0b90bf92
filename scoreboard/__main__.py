"""`python -m scoreboard` runs the command line."""

from scoreboard.cli import main

raise SystemExit(main())
