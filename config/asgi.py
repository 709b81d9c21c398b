"""ASGI entry point: uvicorn serves the site so that NDJSON and SSE responses stream."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

from django.conf import settings  # noqa: E402  (settings need the app set up first)

if settings.SERVE_STATIC:
    # uvicorn has no static file server; this is the handler `runserver` uses.
    # In production put a web server or a CDN in front and set SERVE_STATIC=0.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    application = ASGIStaticFilesHandler(application)
