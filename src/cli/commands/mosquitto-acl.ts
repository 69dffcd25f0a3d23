import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/load.js';
import { mosquittoFiles } from '../../mqtt/mosquitto-acl.js';
import { type Command, UsageError } from '../command.js';

export const mosquittoAclCommand: Command = {
  name: 'mosquitto-acl',
  summary: "write Mosquitto's password file and acl_file for the configuration's roles",
  help: `Usage: xqboard mosquitto-acl [--config FILE] [--out DIR]

Gives an external Mosquitto 2 the roles of the configuration's "access" section (viewer,
player, arbiter, led, controller) and the controller's own account (mqtt.username and
mqtt.password, with the controller role).

  --config FILE   the configuration (default: config/default.yaml's defaults)
  --out DIR       write DIR/xqboard.passwd (mosquitto_passwd format, $7$ PBKDF2-SHA512),
                  DIR/xqboard.acl (acl_file) and DIR/xqboard.conf (the mosquitto.conf lines
                  that use them); without it the acl_file is printed on standard output

Passwords given as "password" are hashed (a new salt each run); "passwordHash" is copied.
Exit status 2 for a bad configuration or option, 1 when a file cannot be written.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { config: { type: 'string' }, out: { type: 'string' } },
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new UsageError('mosquitto-acl takes no arguments (see --help)');
    const loaded = loadConfig(values.config);
    if (!loaded.ok) {
      io.err(`xqboard mosquitto-acl: ${loaded.error.message}`);
      return 2;
    }
    const files = mosquittoFiles(loaded.value);
    for (const w of files.warnings) io.err(`xqboard mosquitto-acl: warning: ${w}`);
    if (values.out === undefined) {
      io.out(files.acl.trimEnd());
      return 0;
    }
    const dir = resolve(values.out);
    const passwd = join(dir, 'xqboard.passwd');
    const acl = join(dir, 'xqboard.acl');
    const conf = join(dir, 'xqboard.conf');
    try {
      writeFileSync(passwd, files.passwd, { mode: 0o600 });
      writeFileSync(acl, files.acl);
      writeFileSync(conf, files.conf(passwd, acl));
    } catch (e) {
      io.err(`xqboard mosquitto-acl: cannot write in ${dir}: ${(e as Error).message}`);
      return 1;
    }
    io.out(`wrote ${passwd}\nwrote ${acl}\nwrote ${conf}`);
    return 0;
  },
};
