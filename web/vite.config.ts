/**
 * Vite configuration of the dashboard (`web/`). `npm run build:web` builds into `web/dist` (git-ignored), which
 * Skiff serves (src/server/web.ts). `npm run dev:web` serves the pages with hot reload on http://localhost:5173,
 * proxying `/graphql` (HTTP and WebSocket) and `/api` to the Skiff of `npm start` (SKIFF_DEV_API, default
 * http://localhost:4000); the proxy presents Skiff's own origin so better-auth's origin check passes.
 */
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

const api = process.env.SKIFF_DEV_API ?? "http://localhost:4000";
const asSkiff: ProxyOptions = {
  target: api,
  changeOrigin: true,
  configure: (proxy) => proxy.on("proxyReq", (req) => req.setHeader("origin", new URL(api).origin)),
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // GraphiQL's modules start with React Compiler's "use no memo" directive, which a bundle drops harmlessly.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  server: { proxy: { "/graphql": { ...asSkiff, ws: true }, "/api": asSkiff } },
});
