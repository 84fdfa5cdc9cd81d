// Every black-box test file: a test's processes end with it, the file's folders with the file.
import { afterAll, afterEach } from 'vitest'
import { disposeAll, removeTempDirs } from './targets.js'

afterEach(disposeAll)
afterAll(removeTempDirs)
