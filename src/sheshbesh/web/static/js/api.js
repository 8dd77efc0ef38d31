// The club's HTTP API: JSON in and out, the CSRF header on every change, and
// errors as ApiError with the server's code and message (docs/protocol.md), and
// the seconds of its Retry-After where it sends one (429, 503 review_busy).

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("csrf="));
  return found ? decodeURIComponent(found.slice(5)) : "";
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    if (!csrfToken()) await fetch("/api/csrf", { credentials: "same-origin" });
    headers["X-CSRF-Token"] = csrfToken();
  }
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "offline", String(error));
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!response.ok) {
    const retry = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    throw new ApiError(response.status, (data && data.error) || "error",
      (data && data.message) || response.statusText, Number.isFinite(retry) ? retry : null);
  }
  return data;
}

export const api = {
  get: (path) => request("GET", path),
  post: (path, body) => request("POST", path, body ?? {}),
  del: (path) => request("DELETE", path),
};
