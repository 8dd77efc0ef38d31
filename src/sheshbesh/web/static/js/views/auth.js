// Log in and register: one small form each; the server's message is shown as is.

import { h } from "../dom.js";

export async function mount(main, ctx) {
  const { t, api } = ctx;
  const registering = ctx.params.get("mode") === "register";
  const error = h("p", { class: "error", role: "alert" });
  const username = h("input", { name: "username", autocomplete: "username", required: true,
    minlength: 3, maxlength: 20, "aria-describedby": "username-help" });
  const password = h("input", { name: "password", type: "password", required: true, minlength: 8,
    autocomplete: registering ? "new-password" : "current-password" });
  const submit = h("button", { type: "submit" }, t(registering ? "auth.register" : "auth.login"));
  const form = h("form", { class: "stack", onsubmit: async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      const path = registering ? "/api/register" : "/api/login";
      await api.post(path, { username: username.value.trim(), password: password.value });
      await ctx.refreshMe();
      if (registering) ctx.toast(t("auth.welcome", { amount: ctx.number(100000) }));
      ctx.navigate("#/");
    } catch (failure) {
      error.textContent = failure.message;
    } finally {
      submit.disabled = false;
    }
  } },
    h("label", {}, t("auth.username"), username),
    registering ? h("small", { id: "username-help", class: "muted" }, t("auth.username_rules")) : null,
    h("label", {}, t("auth.password"), password),
    error, submit);
  main.append(h("section", { class: "card auth" },
    h("h1", {}, t(registering ? "auth.register_title" : "auth.login_title")),
    registering ? h("p", { class: "muted" }, t("auth.grant", { amount: ctx.number(100000) })) : null,
    form,
    h("p", { class: "muted" }, registering
      ? h("a", { href: "#/login" }, t("auth.have_account"))
      : h("a", { href: "#/register" }, t("auth.no_account")))));
  username.focus();
}
