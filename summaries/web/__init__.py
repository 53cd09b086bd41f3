"""`saturn serve`: the summary database as a web page (Flask + Jinja templates), read-only."""
