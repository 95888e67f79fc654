/** Why a key (dotted, below the place the caller names) cannot be honoured. */
export class Problem extends Error {
  constructor(
    readonly key: string,
    message: string
  ) {
    super(message)
  }
}
