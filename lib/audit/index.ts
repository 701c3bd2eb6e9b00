export * from "./log";
export { runAuditHook } from "./observer";
export { AuditQuery, AuditVerifyQuery, parseInstant, verifyShared } from "./query";
