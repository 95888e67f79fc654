/** A bad input or flag; its message names the input, its value and what was expected. */
export class InputError extends Error {}
