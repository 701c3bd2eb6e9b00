export * from "./log";
export { runAudit } from "./observer";
export { AuditQuery, AuditVerifyQuery, parseInstant, verifyShared } from "./query";
