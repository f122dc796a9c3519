import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('refuses Stripe without the webhook signing secret, empty or missing', () => {
    for (const secret of [undefined, '']) {
      expect(() =>
        loadConfig({
          STRIPE_SECRET_KEY: 'sk_test_x',
          ...(secret === undefined ? {} : { STRIPE_WEBHOOK_SECRET: secret }),
        }),
      ).toThrow('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
    }
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).stripe).toEqual({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
    });
    expect(loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' }).stripe).toBeUndefined();
  });

  it('keeps files on the local disk unless STORAGE=s3 names a bucket', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ STORAGE: 'local', S3_BUCKET: 'ignored' }).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ STORAGE: 's3', S3_BUCKET: 'archive-files' }).storage).toEqual({
      driver: 's3',
      s3: { endpoint: undefined, bucket: 'archive-files', region: 'us-east-1', forcePathStyle: false },
    });
    expect(
      loadConfig({
        STORAGE: 's3',
        S3_BUCKET: 'archive-files',
        S3_ENDPOINT: 'http://minio.internal:9000/',
        S3_REGION: 'eu-central-1',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      driver: 's3',
      s3: {
        endpoint: 'http://minio.internal:9000',
        bucket: 'archive-files',
        region: 'eu-central-1',
        forcePathStyle: true,
      },
    });
  });

  it('refuses STORAGE=s3 without a valid bucket, and unknown storage settings', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow('S3_BUCKET is required when STORAGE=s3');
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'Not_A_Bucket' })).toThrow(
      /S3_BUCKET: "Not_A_Bucket"/,
    );
    expect(() => loadConfig({ STORAGE: 'gcs' })).toThrow(/Invalid configuration:\n {2}STORAGE/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT/,
    );
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE/,
    );
  });

  it('reads TRUST_PROXY as none, a hop count or a list of proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(loadConfig({ TRUST_PROXY: '::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each(['yes', 'true', '-1', '1.5', '10.0.0.0/33', '10.0.0.1,proxy.example', '999'])(
    'refuses TRUST_PROXY=%s',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/Invalid configuration:\n {2}TRUST_PROXY/);
    },
  );

  it('serves the API reference in development and test, and in production only with API_DOCS=1', () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).apiDocs).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', API_DOCS: '1' }).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', API_DOCS: '0' }).apiDocs).toBe(false);
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(/Invalid configuration:\n {2}API_DOCS/);
  });

  it('runs the DICOM node only with DICOM_PORT, under a valid AE title', () => {
    expect(loadConfig({}).dicom.node).toBeUndefined();
    expect(loadConfig({ DICOM_AE_TITLE: 'SENDER' }).dicom.aeTitle).toBe('SENDER');
    expect(loadConfig({ DICOM_PORT: '11112' }).dicom.node).toEqual({ port: 11112, aeTitle: 'RADARCHIVE' });
    expect(loadConfig({ DICOM_PORT: '104', DICOM_AE_TITLE: ' ARCHIVE_1 ' }).dicom.node).toEqual({
      port: 104,
      aeTitle: 'ARCHIVE_1',
    });
    for (const port of ['0', '65536', 'dicom']) {
      expect(() => loadConfig({ DICOM_PORT: port })).toThrow(/DICOM_PORT/);
    }
    for (const title of ['', 'SEVENTEEN_CHARS_X', 'A\\B', 'TAB\tTAB']) {
      expect(() => loadConfig({ DICOM_PORT: '104', DICOM_AE_TITLE: title })).toThrow(/DICOM_AE_TITLE/);
    }
  });
});
