"""`python manage.py mcp`: serve the trial tools over stdio for an MCP client.

stdout carries the protocol, so nothing else may print there; Django's
logging goes to stderr (the console handler's default stream).
"""

from django.core.management.base import BaseCommand

from trials.mcp_server import build_server


class Command(BaseCommand):
    help = "Serve the four trial-phase prompt tools and check_phase over MCP (stdio)."

    def handle(self, *args, **options) -> None:
        build_server().run("stdio")
