export { createRuntimeSource, toRegisteredTool } from "./source";
export { compileJsonata, evaluateJsonata, JsonataError } from "../jsonata/evaluate";
