/**
 * A secret kept out of every log line, JSON body and error: printing, serialising or inspecting
 * it shows `[redacted]`. Only the chain module reads `reveal()`, to sign or to log in to an HSM.
 */
export class Secret<T extends string = string> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `${this.constructor.name}([redacted])`;
  }
}
