"""WSGI entry point: ``gunicorn service.wsgi:app``."""

from service.api import create_app

app = create_app()
