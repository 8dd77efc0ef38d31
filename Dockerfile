# The club as an image: the wheel built from this checkout and installed (not editable),
# so the image serves exactly what `pip install sheshbesh` would (docs/deploy.md).
FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 1000 club
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER club
WORKDIR /home/club
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request, sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"
CMD ["sheshbesh", "serve", "--host", "0.0.0.0", "--port", "8000"]
