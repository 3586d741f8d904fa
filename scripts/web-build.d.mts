/** True when web/dist holds the build of the sources now in the checkout (scripts/web-build.mjs). */
export function webBuildCurrent(): boolean;
/** Builds web/dist with Vite and records its inputs' digest; @returns Vite's exit status (0 on success). */
export function buildWeb(vite?: string): number;
