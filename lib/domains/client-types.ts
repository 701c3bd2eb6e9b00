/** Types shared with the browser (no server imports). */
export type { DomainOption } from "./types";
export type { ParamOptions, ToolOptions } from "./service";
