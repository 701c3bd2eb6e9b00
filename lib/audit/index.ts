export * from "./log";
export { runAuditHook } from "./observer";
export { auditConfigSave, watchConfigChanges, type ConfigWatch, type WatchConfigOptions } from "./config";
export { AuditQuery, AuditVerifyQuery, parseInstant, verifyShared } from "./query";
