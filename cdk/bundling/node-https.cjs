// node:https as a CommonJS value, as node-http.cjs: imported as ESM it too is given a facade
// that reads every export (~40 ms of CPU in a fresh process, against ~25 ms as a value).
module.exports = process.getBuiltinModule('node:https');
