"""WSGI entry point: ``gunicorn service.wsgi:app``."""

from service.api import create_app
from service.rules import thirteen as joker_thirteen

app = create_app()
# Every Joker Thirteen dun shape's plan, made now (0.4 s, 7 MiB): under gunicorn in the master, before the
# workers fork, so they share the tables and no worker meets a new shape on a request.
joker_thirteen.plan_every_shape()
