"""The application: the command line, one run front to back, its configuration and record."""
