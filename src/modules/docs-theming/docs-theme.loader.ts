/**
 * `GET /docs-theme.js` (spec "Docs-domain lookup and theme"): the browser script a docs site includes as
 * `<script src="{docs_host}/docs-theme.js" data-docs-host="{docs_host}"></script>`. On any hostname other than the
 * docs host's own and localhost it asks `{docs_host}/api/docs/lookup?hostname=<location.hostname>`, then
 * `{cloudUrl}/api/theme`, and applies the theme: `siteName` (tab title and every `[data-docs-theme="site-name"]` /
 * `.navbar__title`), the logo (`[data-docs-theme="logo"]` / `.navbar__logo img`), the favicon, the colours as CSS
 * variables (`:root` light, `.dark` / `[data-theme="dark"]` dark; use them as `hsl(var(--primary))`), the footer
 * text (`[data-docs-theme="footer"]` / `.footer__copyright`) and the custom CSS. The theme is kept in
 * `sessionStorage` for 5 minutes; any failure leaves the page's default theme, silently.
 */

/** The script, plain ES2017 (no build step; served as it is). */
export const DOCS_THEME_LOADER = `/* Skiff docs theme loader (docs-domain theming). */
(function () {
  "use strict";
  var TTL_MS = 5 * 60 * 1000;
  var script = document.currentScript;
  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function kebab(k) { return "--" + k.replace(/[A-Z]/g, function (c) { return "-" + c.toLowerCase(); }); }
  function block(selector, colors) {
    var lines = [];
    Object.keys(colors).forEach(function (k) {
      if (/^[a-z][a-zA-Z0-9]*$/.test(k) && /^[0-9. ]+%? [0-9.]+% [0-9.]+%$/.test(String(colors[k])))
        lines.push("  " + kebab(k) + ": " + colors[k] + ";");
    });
    return selector + " {\\n" + lines.join("\\n") + "\\n}\\n";
  }
  function valid(t) {
    return isObject(t) && typeof t.siteName === "string" && isObject(t.colorsLight) && isObject(t.colorsDark);
  }
  function each(selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); }
  function apply(t) {
    document.title = t.siteName;
    each('[data-docs-theme="site-name"], .navbar__title', function (el) { el.textContent = t.siteName; });
    if (typeof t.logoUrl === "string" && t.logoUrl)
      each('[data-docs-theme="logo"], .navbar__logo img', function (el) { el.setAttribute("src", t.logoUrl); });
    if (typeof t.footerText === "string" && t.footerText)
      each('[data-docs-theme="footer"], .footer__copyright', function (el) { el.textContent = t.footerText; });
    if (typeof t.faviconUrl === "string" && t.faviconUrl) {
      var icons = document.querySelectorAll('link[rel~="icon"]');
      if (!icons.length) {
        var link = document.createElement("link");
        link.rel = "icon";
        document.head.appendChild(link);
        icons = [link];
      }
      Array.prototype.forEach.call(icons, function (el) { el.href = t.faviconUrl; });
    }
    var style = document.getElementById("skiff-docs-theme") || document.createElement("style");
    style.id = "skiff-docs-theme";
    style.textContent = block(":root", t.colorsLight) + block('.dark, [data-theme="dark"]', t.colorsDark) +
      (typeof t.customCss === "string" ? "\\n" + t.customCss + "\\n" : "");
    document.head.appendChild(style);
  }
  function whenReady(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn, { once: true });
    else fn();
  }
  function getJson(url) {
    return fetch(url, { credentials: "omit", mode: "cors" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    });
  }
  try {
    var hostAttr = script && script.getAttribute("data-docs-host");
    var docsHost = new URL(hostAttr || (script && script.src) || "", location.href);
    var here = location.hostname;
    if (!here || here === docsHost.hostname || here === "localhost" || here === "127.0.0.1" || here === "[::1]") return;
    var key = "skiff-docs-theme:" + here;
    try {
      var cached = JSON.parse(sessionStorage.getItem(key) || "null");
      if (cached && Date.now() - cached.at < TTL_MS && valid(cached.theme)) {
        whenReady(function () { try { apply(cached.theme); } catch (e) { /* keep the default theme */ } });
        return;
      }
    } catch (e) { /* no usable cache */ }
    getJson(new URL("/api/docs/lookup?hostname=" + encodeURIComponent(here), docsHost).href)
      .then(function (found) {
        if (!isObject(found) || typeof found.cloudUrl !== "string") throw new Error("no cloudUrl");
        return getJson(found.cloudUrl.replace(/\\/+$/, "") + "/api/theme");
      })
      .then(function (theme) {
        if (!valid(theme)) throw new Error("not a theme");
        try { sessionStorage.setItem(key, JSON.stringify({ at: Date.now(), theme: theme })); } catch (e) { /* full */ }
        whenReady(function () { try { apply(theme); } catch (e) { /* keep the default theme */ } });
      })
      .catch(function () { /* the default theme stays */ });
  } catch (e) { /* the default theme stays */ }
})();
`;
