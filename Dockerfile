# Citadel's image for compose.yaml: the package with its runtime dependencies, Pango for
# the PDF exports, static files collected at build time (served by WhiteNoise).
FROM python:3.11-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir -e . \
 && SECRET_KEY=build CITADEL_STATIC_MANIFEST=1 python manage.py collectstatic --no-input \
 && SECRET_KEY=build PY=python scripts/fetch-meaning-model
RUN useradd --create-home citadel && mkdir -p /data && chown citadel /data
USER citadel
EXPOSE 8000
CMD ["gunicorn", "armybuilder.wsgi", "--config", "armybuilder/gunicorn.conf.py"]
