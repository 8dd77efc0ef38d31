// The club's HTTP API: JSON in and out, the CSRF header on every change, and
// errors as ApiError with the server's code and message (docs/protocol.md).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
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
    throw new ApiError(response.status, (data && data.error) || "error",
      (data && data.message) || response.statusText);
  }
  return data;
}

export const api = {
  get: (path) => request("GET", path),
  post: (path, body) => request("POST", path, body ?? {}),
  del: (path) => request("DELETE", path),
};
