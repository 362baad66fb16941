// The `source` export condition is this workspace's (its packages point it at their TypeScript
// sources); a third-party package that declares one too (eventsource-parser, which the MCP SDK's
// client uses) would be loaded from its ESM sources, which jest cannot require. Only @credit/*
// packages resolve with it.
module.exports = (path, options) =>
  options.defaultResolver(path, {
    ...options,
    conditions:
      path.startsWith('@credit/') || path.startsWith('.') || options.conditions === undefined
        ? options.conditions
        : options.conditions.filter((condition) => condition !== 'source'),
  });
