// A CommonJS script, as a webpack.config.js often is: require()s each module named in the JSON
// array of its first argument, from the project it sits in, and prints as JSON, per module, the
// type of each export (one level into a plain object) or the error require() threw.
const report = {}

function describe(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return typeof value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, typeof inner]))
}

for (const specifier of JSON.parse(process.argv[2])) {
  try {
    const exported = require(specifier)
    report[specifier] = {
      exports: Object.fromEntries(Object.keys(exported).map((key) => [key, describe(exported[key])])),
    }
  } catch (error) {
    report[specifier] = { error: `${error.code ?? error.name}: ${String(error.message).split('\n')[0]}` }
  }
}
process.stdout.write(JSON.stringify(report))
