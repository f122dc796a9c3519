import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stopChild } from './child-process.js';
import { freePort } from './free-port.js';

/**
 * Orthanc, the reference archive (Debian packages `orthanc` and `orthanc-dicomweb`, which CI
 * installs), started on loopback from a configuration in a temporary directory and removed with it.
 */
export interface OrthancServer {
  /** Its REST API, e.g. http://127.0.0.1:8042. */
  base: string;
  /** Its DICOMweb root, without a trailing slash. */
  dicomweb: string;
  /** Its DICOM port and AE title, for DIMSE peers. */
  dicomPort: number;
  aeTitle: string;
  /** Its last output (errors and warnings): why a job failed, which its REST answer does not say. */
  recentLog(): string;
  /** Its process, to read what it uses from /proc (the bench). */
  pid: number;
  stop(): Promise<void>;
}

/** A DICOMweb peer Orthanc may pull from and push to (`DicomWeb.Servers`). */
export interface OrthancPeer {
  url: string;
  headers?: Record<string, string>;
}

const ORTHANC = process.env.ORTHANC_BINARY ?? '/usr/sbin/Orthanc';
const DICOMWEB_PLUGIN =
  process.env.ORTHANC_DICOMWEB_PLUGIN ?? '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

/** Whether the Orthanc binary and its DICOMweb plugin are installed (tests that need them skip otherwise). */
export function isOrthancInstalled(): boolean {
  return existsSync(ORTHANC) && existsSync(DICOMWEB_PLUGIN);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** A DICOM node Orthanc may send to (`DicomModalities`), by AE title, host and port. */
export interface OrthancModality {
  aeTitle: string;
  host: string;
  port: number;
}

export async function startOrthanc(
  peers: Record<string, OrthancPeer> = {},
  dicom: { aeTitle?: string; modalities?: Record<string, OrthancModality> } = {},
): Promise<OrthancServer> {
  if (!(await exists(ORTHANC)) || !(await exists(DICOMWEB_PLUGIN))) {
    throw new Error(
      `Orthanc is missing (${ORTHANC}, ${DICOMWEB_PLUGIN}): install it with "apt-get install orthanc orthanc-dicomweb".`,
    );
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-orthanc-'));
  const [httpPort, dicomPort] = [await freePort(), await freePort()];
  const config = {
    Name: 'ra-reference',
    StorageDirectory: path.join(dir, 'storage'),
    IndexDirectory: path.join(dir, 'storage'),
    HttpPort: httpPort,
    DicomPort: dicomPort,
    DicomAet: dicom.aeTitle ?? 'ORTHANC',
    DicomModalities: Object.fromEntries(
      Object.entries(dicom.modalities ?? {}).map(([name, modality]) => [
        name,
        [modality.aeTitle, modality.host, modality.port],
      ]),
    ),
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    // Loopback only: it must not reach for anything outside this machine.
    HttpProxy: '',
    Plugins: [DICOMWEB_PLUGIN],
    DicomWeb: {
      Enable: true,
      Root: '/dicom-web/',
      Servers: Object.fromEntries(
        Object.entries(peers).map(([name, peer]) => [
          name,
          { Url: peer.url, HttpHeaders: peer.headers ?? {} },
        ]),
      ),
    },
  };
  const configFile = path.join(dir, 'orthanc.json');
  await fs.writeFile(configFile, JSON.stringify(config, null, 2));
  const child: ChildProcess = spawn(ORTHANC, [configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const base = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    await stopChild(child);
    await fs.rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Orthanc exited with ${child.exitCode}: ${errors}`);
    }
    const up = await fetch(`${base}/system`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) {
      return {
        base,
        dicomweb: `${base}/dicom-web`,
        dicomPort,
        aeTitle: dicom.aeTitle ?? 'ORTHANC',
        recentLog: () => errors,
        pid: child.pid!,
        stop,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`Orthanc did not start: ${errors}`);
}
