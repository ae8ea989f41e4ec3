/**
 * Creates the agent key in an HSM, through its PKCS#11 library, and prints its address:
 *   npm run hsm-key -- --library /usr/lib/softhsm/libsofthsm2.so --token gateway --label agent-1 --pin-env HSM_PIN
 * (or --pin-file /run/secrets/hsm-pin). The secp256k1 key pair is generated inside the token,
 * sensitive and not extractable: its value never leaves it. A label already taken is refused;
 * `--show` prints the address of the existing key instead. The address is the one to make an
 * agent of the tokens, and to fund with gas. CHAINS names the same library, token, label and PIN
 * source (docs/agent-key.md).
 */
import { parsePkcs11Signer } from '../src/config/pkcs11';
import { Pkcs11Token } from '../src/modules/chain/signer/pkcs11-token';

const USAGE = 'usage: npm run hsm-key -- --library <path> --token <token label> --label <key label> (--pin-env <VAR> | --pin-file <path>) [--show]';
const FLAGS: Record<string, string> = {
  '--library': 'library',
  '--token': 'tokenLabel',
  '--label': 'keyLabel',
  '--pin-env': 'pinEnv',
  '--pin-file': 'pinFile',
};

function main(): void {
  const args = process.argv.slice(2);
  const raw: Record<string, unknown> = { kind: 'pkcs11' };
  let show = false;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--show') show = true;
    else if (FLAGS[flag] && args[i + 1] !== undefined) raw[FLAGS[flag]] = args[++i];
    else throw new Error(`${flag}: unknown or without a value\n${USAGE}`);
  }
  const problems: string[] = [];
  const config = parsePkcs11Signer('hsm-key', raw, process.env, problems);
  if (!config) throw new Error(`${problems.join('\n')}\n${USAGE}`);
  const token = Pkcs11Token.open(config);
  try {
    const pair = show ? token.findKeyPair(config.keyLabel) : token.generateKeyPair(config.keyLabel);
    if (!pair) throw new Error(`token "${config.tokenLabel}" holds no key labelled "${config.keyLabel}"`);
    console.log(`${show ? 'agent key' : 'generated agent key'} "${config.keyLabel}" in token "${config.tokenLabel}": address ${pair.address}`);
  } finally {
    token.close();
  }
}

try {
  main();
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
