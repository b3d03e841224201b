# Rules service image: slim Python, non-root, gunicorn, health-checked.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    CARD_RULES_OPENAPI_PATH=/app/openapi.yaml

WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
COPY openapi.yaml gunicorn.conf.py ./
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --no-create-home rules

USER rules
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz\", timeout=2)"]
ENTRYPOINT ["gunicorn", "--config", "gunicorn.conf.py", "service.wsgi:app"]
