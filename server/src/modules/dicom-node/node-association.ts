import fs from 'node:fs/promises';
import type { Socket } from 'node:net';
import type { association, Dataset as DimseDataset, requests, responses } from 'dcmjs-dimse';
import { STUDY_MESSAGES } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { storeRefusalOf } from '../access/index.js';
import { makeWorkFiles, readDicomFile, storageBudget, type DicomFile } from '../studies/index.js';
import { fileAssociation } from './association-filing.js';
import * as repo from './dicom-nodes.repository.js';
import dimse from './dimse-library.js';
import { InstanceWriter } from './instance-writer.js';
import { part10Header } from './part10-header.js';
import { negotiate } from './presentation-contexts.js';
import { statusOfRefusal, STORE_STATUS } from './store-status.js';

const { Dataset, Scp } = dimse;
const { CEchoResponse, CStoreResponse } = dimse.responses;
const { RejectResult, RejectSource, RejectReason, Status } = dimse.constants;

/** Instances one association may bring; more are refused (out of resources). */
export const MAX_INSTANCES_PER_ASSOCIATION = 20_000;

/** What every association shares: the app, the node's own AE title, the count of live associations. */
export interface NodeDeps {
  ctx: AppContext;
  aeTitle: string;
  /** Takes one of the simultaneous associations allowed; false when all are in use. */
  claimSlot: () => boolean;
  releaseSlot: () => void;
  /** Work that shutdown waits for (an association being filed). */
  track: (work: Promise<unknown>) => void;
}

type WorkFiles = Awaited<ReturnType<typeof makeWorkFiles>>;

/** An address as the registry writes it: IPv4 callers reach a dual-stack socket as ::ffff:a.b.c.d. */
function plainAddress(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

/** The physician as filing sees them: the registry's account columns, acting without a session. */
function actorOf(node: NonNullable<repo.RegisteredNode>): Actor {
  return {
    id: node.physicianId,
    email: node.physicianEmail,
    role: node.role,
    title: node.title,
    firstName: node.firstName,
    lastName: node.lastName,
    emailVerifiedAt: node.emailVerifiedAt,
    totpEnabledAt: node.totpEnabledAt,
    emailVerified: node.emailVerifiedAt !== null,
    sessionId: '',
  };
}

/**
 * One DICOM association with the node (a dcmjs-dimse SCP on one connection): checks who calls,
 * answers C-ECHO, writes each C-STORE dataset to a work file as it arrives and reads it as an
 * upload is read, and files what was taken when the caller releases the association. An
 * association that ends any other way (abort, dropped connection, shutdown) files nothing and its
 * work files are removed.
 */
export class NodeAssociation extends Scp {
  private physician: Actor | undefined;
  private callingAeTitle = '';
  private hasSlot = false;
  private workFiles: Promise<WorkFiles> | undefined;
  private readonly writers = new Map<requests.CStoreRequest, InstanceWriter>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly taken: DicomFile[] = [];
  private storageLeft = 0;
  private received = 0;
  private isReleased = false;
  private isEnded = false;

  constructor(
    private readonly connection: Socket,
    opts: ConstructorParameters<typeof Scp>[1],
    private readonly deps: NodeDeps,
  ) {
    super(connection, opts);
    this.on('close', () => this.end());
  }

  private get ip(): string {
    return plainAddress(this.connection.remoteAddress);
  }

  private reject(result: number, source: number, reason: number): void {
    this.sendAssociationReject(result, source, reason);
  }

  override associationRequested(request: association.Association): void {
    this.deps.track(this.guard(this.decide(request)));
  }

  private async decide(request: association.Association): Promise<void> {
    const { ctx } = this.deps;
    if (request.getCalledAeTitle().trim() !== this.deps.aeTitle) {
      ctx.log.warn(
        { called: request.getCalledAeTitle(), ip: this.ip },
        'DICOM association to another AE title refused',
      );
      this.reject(RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CalledAeNotRecognized);
      return;
    }
    const calling = request.getCallingAeTitle().trim();
    const node = calling ? await repo.findNodeByAeTitle(ctx.db, calling) : undefined;
    const isFromItsHost = node && (node.host === null || plainAddress(node.host) === this.ip);
    if (!node || !isFromItsHost || node.role !== 'PHYSICIAN' || storeRefusalOf(actorOf(node))) {
      ctx.log.warn({ calling, ip: this.ip }, 'DICOM association from an unregistered AE title refused');
      this.reject(RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CallingAeNotRecognized);
      return;
    }
    if (!this.deps.claimSlot()) {
      this.reject(
        RejectResult.Transient,
        RejectSource.ServiceProviderPresentation,
        RejectReason.LocalLimitExceeded,
      );
      return;
    }
    this.hasSlot = true;
    this.physician = actorOf(node);
    this.callingAeTitle = calling;
    this.storageLeft = await storageBudget(ctx, this.physician).then(
      (budget) => budget.bytes,
      () => 0,
    );
    negotiate(request);
    this.sendAssociationAccept();
  }

  override cEchoRequest(
    request: requests.CEchoRequest,
    callback: (response: responses.CEchoResponse) => void,
  ): void {
    const response = CEchoResponse.fromRequest(request);
    response.setStatus(Status.Success);
    callback(response);
  }

  override createStoreWritableStream(
    context: association.PresentationContext,
    request: requests.CStoreRequest,
  ): InstanceWriter {
    this.received += 1;
    const header = part10Header({
      sopClassUid: request.getAffectedSopClassUid(),
      sopInstanceUid: request.getAffectedSopInstanceUid(),
      transferSyntaxUid: context.getAcceptedTransferSyntaxUid() ?? '',
      sourceAeTitle: this.callingAeTitle,
    });
    this.workFiles ??= makeWorkFiles(this.deps.ctx.tusDir);
    const name = `${this.received}.dcm`;
    const path = this.workFiles.then((files) => files.pathOf(name));
    const writer = new InstanceWriter(path, header, this.deps.ctx.config.dicom.maxInstanceBytes);
    this.writers.set(request, writer);
    return writer;
  }

  override createDatasetFromStoreWritableStream(
    writable: InstanceWriter,
    _context: association.PresentationContext,
    callback: (dataset: DimseDataset) => void,
  ): void {
    // The dataset stays on disk: the request carries an empty one, the file is found by the request.
    void writable.finished().then(() => callback(new Dataset()));
  }

  override cStoreRequest(
    request: requests.CStoreRequest,
    callback: (response: responses.CStoreResponse) => void,
  ): void {
    const work = this.store(request).then(
      (status) => status,
      (err: unknown) => {
        this.deps.ctx.log.error({ err }, 'the DICOM node could not read an instance');
        return STORE_STATUS.processingFailure;
      },
    );
    this.trackInstance(
      work.then((status) => {
        const response = CStoreResponse.fromRequest(request);
        response.setStatus(status);
        callback(response);
      }),
    );
  }

  /** Reads one received instance as an upload is read: kept for filing, or refused with a status. */
  private async store(request: requests.CStoreRequest): Promise<number> {
    const writer = this.writers.get(request);
    this.writers.delete(request);
    if (!writer) {
      return STORE_STATUS.processingFailure;
    }
    await writer.finished();
    const path = writer.path;
    const refuse = async (status: number) => {
      if (path) {
        await fs.rm(path, { force: true });
      }
      return status;
    };
    if (writer.failure || !path) {
      this.deps.ctx.log.error({ err: writer.failure }, 'the DICOM node could not write an instance');
      return refuse(STORE_STATUS.processingFailure);
    }
    if (writer.isTooLarge || this.taken.length >= MAX_INSTANCES_PER_ASSOCIATION) {
      return refuse(STORE_STATUS.outOfResources);
    }
    const name = request.getAffectedSopInstanceUid() || path;
    const read = await readDicomFile(
      name,
      path,
      (bytes) => this.deps.ctx.decoder.readInstance(bytes),
      writer.takeKeptBytes(),
    );
    if (!read) {
      // The media index (DICOMDIR) is no instance to file.
      return refuse(STORE_STATUS.cannotUnderstand);
    }
    if ('skipped' in read) {
      return refuse(statusOfRefusal(read.skipped.reason));
    }
    if (read.file.size > this.storageLeft) {
      return refuse(statusOfRefusal(STUDY_MESSAGES.storageFull));
    }
    this.storageLeft -= read.file.size;
    this.taken.push(read.file);
    return STORE_STATUS.success;
  }

  override associationReleaseRequested(): void {
    this.deps.track(this.guard(this.release()));
  }

  private async release(): Promise<void> {
    this.isReleased = true;
    await this.settled();
    if (this.physician && this.taken.length > 0) {
      const outcome = await fileAssociation(this.deps.ctx, this.physician, this.taken.splice(0), {
        source: `DICOM ${this.callingAeTitle}`,
        ip: this.ip,
      });
      this.deps.ctx.log.info({ calling: this.callingAeTitle, ...outcome }, 'DICOM association filed');
    }
    await this.removeWorkFiles();
    this.sendAssociationReleaseResponse();
  }

  override abort(): void {
    this.connection.destroy();
  }

  /** The connection is gone: what was not filed is dropped, and the slot is given back. */
  private end(): void {
    if (this.isEnded) {
      return;
    }
    this.isEnded = true;
    if (this.hasSlot) {
      this.deps.releaseSlot();
    }
    // A dataset cut off mid-transfer: its file is closed before the work files are removed.
    const closing = [...this.writers.values()].map((writer) => {
      const closed = writer.finished();
      writer.destroy();
      return closed;
    });
    this.writers.clear();
    if (!this.isReleased) {
      this.taken.length = 0;
      this.deps.track(
        this.guard(
          Promise.all(closing)
            .then(() => this.settled())
            .then(() => this.removeWorkFiles()),
        ),
      );
    }
  }

  /** Waits until every instance received so far is written and read (or refused). */
  private async settled(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }

  private async removeWorkFiles(): Promise<void> {
    const files = await this.workFiles?.catch(() => undefined);
    await files?.remove();
  }

  /** Work that fails the association (logged, connection closed) rather than the process. */
  private guard(work: Promise<unknown>): Promise<unknown> {
    return work.catch((err: unknown) => {
      this.deps.ctx.log.error({ err }, 'DICOM association failed');
      this.connection.destroy();
    });
  }

  /** One instance's handling, which release and clean-up wait for. */
  private trackInstance(work: Promise<unknown>): void {
    const guarded = this.guard(work);
    this.pending.add(guarded);
    void guarded.finally(() => this.pending.delete(guarded));
    this.deps.track(guarded);
  }
}
