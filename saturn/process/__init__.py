"""The process machinery: worker processes, deadlines and deep stacks, the cyclic collector."""
