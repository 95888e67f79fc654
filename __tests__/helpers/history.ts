import { listRender } from '../fixtures/history/render'

/** The history's place on a test repository's branch, as the action's defaults put it. */
export const branchTarget = { branch: 'gh-pages', dir: 'benchmarks', render: listRender }
