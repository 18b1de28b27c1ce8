import createDebug from "debug";

/** DEBUG=harness:docker */
export const log = createDebug("harness:docker");
