/** The report files of `compare` and `replay` (docs/keeping-the-mock-honest.md, "Reports"). */
import { writeFile } from 'node:fs/promises'
import type { StepResult } from '../fidelity/engine.js'
import { buildReport, formatJunit } from '../fidelity/report.js'

/** Where `--report` and `--junit` asked for the reports; either may be absent. */
export interface ReportFiles {
  report?: string | undefined
  junit?: string | undefined
}

/** Writes the JSON report and the JUnit XML that `files` asks for, of `steps` (after `--allow`). */
export async function writeReports(
  files: ReportFiles,
  steps: StepResult[],
  about: { upstream: string; scenario: string; suite: string },
): Promise<void> {
  if (files.report !== undefined)
    await writeFile(
      files.report,
      `${JSON.stringify(buildReport(about.upstream, about.scenario, steps), null, 2)}\n`,
    )
  if (files.junit !== undefined) await writeFile(files.junit, formatJunit(about.suite, steps))
}
