"""The service layer: commands and queries over the domain, and the ports it needs from outside."""
