/**
 * Secrets a production start accepts (src/config/secret-strength.ts): made once with the commands
 * docs/deployment.md gives (`openssl rand -base64 48`, `-base64 32`, `-hex 32`) and fixed here, so
 * a test's configuration is the same every run. Never a deployment's.
 */
export const STRONG_KEYS = {
  JWT_SIGNING_KEY: '1Z81NOQktt4vlx+aqDcC4UDUBvabtrrIsngApNODfg9kNxrvPepU4XM8+G7VOUI8',
  WEBHOOK_SECRET_KEY: 'yrmDtbKjCfi89MbxjrbrNKW/mDYpIceyoS6PVWjpnnQ=',
  METRICS_TOKEN: '05671c64e31f3bb1372badcd12ba0732d8a8f006930317538f591548984a9b5d',
};
