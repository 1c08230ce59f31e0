// Reads Vitest's JSON report (CI's test step): fails if any test did not pass or none ran on Postgres,
// and names the ten slowest files, so the next growth of the suite shows where it lands.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const all = report.testResults.flatMap((file) => file.assertionResults)
const notPassed = all.filter((test) => test.status !== 'passed')
const postgres = all.filter(
  (test) => test.status === 'passed' && test.ancestorTitles.some((title) => title.includes('[postgres]')),
)

const files = report.testResults
  .map((file) => ({
    name: relative(process.cwd(), file.name),
    seconds: (file.endTime - file.startTime) / 1000,
  }))
  .sort((a, b) => b.seconds - a.seconds)
console.log(`The ten slowest of ${files.length} files:`)
for (const file of files.slice(0, 10)) console.log(`${file.seconds.toFixed(1).padStart(7)} s  ${file.name}`)
const worker = files.reduce((sum, file) => sum + file.seconds, 0)
console.log(`${(worker / 60).toFixed(1)} worker-minutes in all`)

console.log(
  `${all.length - notPassed.length} passed, ${notPassed.length} not passed, ${postgres.length} on Postgres`,
)
for (const test of notPassed)
  console.error(`  ${test.status}: ${[...test.ancestorTitles, test.title].join(' > ')}`)
if (notPassed.length > 0 || postgres.length === 0) {
  console.error('Some tests were skipped or no Postgres test ran')
  process.exit(1)
}
