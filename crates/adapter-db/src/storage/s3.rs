//! `DocumentStore` on an S3-compatible object store (Apache Arrow's `object_store`), for
//! several instances sharing their files. Bytes are sealed (`sealing/file_cipher.rs`) before they
//! leave the process: the bucket never holds a document in clear. Uploads go up as
//! multipart uploads, invisible until completed; downloads come down as a stream.

use domain::error::Report;
use std::sync::Arc;

use async_trait::async_trait;
use domain::OffsetDateTime;
use domain::ids::FileId;
use domain::ports::{
    DocumentStore, FileDownload, FileUpload, StoreError, StoreResult, StoredObject,
};
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};

use crate::failure::fault;
use crate::sealing::file_cipher::{Decryptor, Encryptor, FILE_HEAD};
use crate::sealing::vault::Vault;
use crate::storage::copy::copy_file;
use crate::storage::local::resealable;

/// Bytes per part of a multipart upload: S3's smallest part but the last.
const PART: usize = 5 * 1024 * 1024;
/// Parts of one upload in flight at once.
const PARTS_IN_FLIGHT: usize = 2;

/// Files as objects `{prefix}/{id}` in one bucket.
#[derive(Clone)]
pub struct ObjectFiles {
    store: Arc<dyn ObjectStore>,
    prefix: Path,
    vault: Arc<Vault>,
    url: String,
}

impl std::fmt::Debug for ObjectFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ObjectFiles")
            .field("url", &self.url)
            .finish()
    }
}

fn failed(e: object_store::Error) -> StoreError {
    StoreError::Unavailable(fault("object store", e))
}

fn undecryptable(e: crate::sealing::file_cipher::Undecryptable) -> StoreError {
    StoreError::Internal(Box::new(e))
}

impl ObjectFiles {
    /// The bucket and prefix of `s3://BUCKET[/PREFIX]`, with the credentials, region and
    /// endpoint of the standard `AWS_*` variables.
    pub fn s3(url: &str, vault: Arc<Vault>) -> Result<Self, String> {
        Self::on(url, vault, AmazonS3Builder::from_env())
    }

    /// As [`ObjectFiles::s3`], with `settings` (`aws_endpoint`, `aws_region`... as
    /// `object_store` names them) and nothing from the `AWS_*` variables: for a process
    /// that talks to more than one bucket, or a test whose environment must not leak in.
    pub fn s3_with(
        url: &str,
        vault: Arc<Vault>,
        settings: &[(&str, &str)],
    ) -> Result<Self, String> {
        let mut builder = AmazonS3Builder::new();
        for &(key, value) in settings {
            let key: AmazonS3ConfigKey = key.parse().map_err(|e| format!("{key}: {e}"))?;
            builder = builder.with_config(key, value);
        }
        Self::on(url, vault, builder)
    }

    fn on(url: &str, vault: Arc<Vault>, builder: AmazonS3Builder) -> Result<Self, String> {
        let rest = url
            .strip_prefix("s3://")
            .ok_or_else(|| format!("not an s3:// address: {url}"))?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(format!("no bucket in {url}"));
        }
        // object_store's HTTP client does TLS with the process's rustls provider, and this
        // build carries only ring's (see the workspace's Cargo.toml); a second install is
        // refused, harmlessly.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let store = builder
            .with_bucket_name(bucket)
            .build()
            .map_err(|e| format!("cannot use {url}: {e}"))?;
        Ok(Self {
            store: Arc::new(store),
            prefix: Path::from(prefix.trim_matches('/')),
            vault,
            url: url.to_owned(),
        })
    }

    fn path(&self, file_id: &str) -> StoreResult<Path> {
        // Ids are ours (ULIDs); refuse anything else rather than address an odd key.
        if file_id.is_empty() || !file_id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(StoreError::Internal(
                format!("not a file id: {file_id:?}").into(),
            ));
        }
        Ok(self.prefix.clone().join(file_id))
    }
}

/// An upload under way: sealed bytes fed to a multipart upload, completed by `finish`.
struct ObjectUpload {
    encryptor: Option<Encryptor>,
    upload: Option<WriteMultipart>,
}

impl ObjectUpload {
    fn parts(&mut self) -> StoreResult<(&mut Encryptor, &mut WriteMultipart)> {
        match (self.encryptor.as_mut(), self.upload.as_mut()) {
            (Some(e), Some(u)) => Ok((e, u)),
            _ => Err(StoreError::Internal("upload already ended".into())),
        }
    }
}

#[async_trait]
impl FileUpload for ObjectUpload {
    async fn write(&mut self, bytes: Vec<u8>) -> StoreResult<()> {
        let (encryptor, upload) = self.parts()?;
        let sealed = encryptor.push(&bytes).map_err(undecryptable)?;
        // Back-pressure: at most a few parts are held while they go up.
        upload
            .wait_for_capacity(PARTS_IN_FLIGHT)
            .await
            .map_err(failed)?;
        upload.write(&sealed);
        Ok(())
    }

    async fn finish(mut self: Box<Self>) -> StoreResult<()> {
        let (Some(encryptor), Some(mut upload)) = (self.encryptor.take(), self.upload.take())
        else {
            return Err(StoreError::Internal("upload already ended".into()));
        };
        upload.write(&encryptor.finish().map_err(undecryptable)?);
        upload.finish().await.map_err(failed)?;
        Ok(())
    }

    async fn abort(mut self: Box<Self>) {
        if let Some(upload) = self.upload.take()
            && let Err(e) = upload.abort().await
        {
            // Parts of an abandoned upload are never visible; a bucket lifecycle rule
            // removes them (docs/DEPLOY.md).
            tracing::warn!(error = %Report(&e), "a multipart upload could not be aborted");
        }
    }
}

/// An object's sealed bytes as they come down, opened on the way.
struct ObjectDownload {
    stream: BoxStream<'static, object_store::Result<bytes::Bytes>>,
    decryptor: Option<Decryptor>,
}

#[async_trait]
impl FileDownload for ObjectDownload {
    async fn next(&mut self) -> StoreResult<Option<Vec<u8>>> {
        loop {
            let Some(decryptor) = self.decryptor.as_mut() else {
                return Ok(None);
            };
            match self.stream.next().await {
                Some(piece) => {
                    let plain = decryptor
                        .push(&piece.map_err(failed)?)
                        .map_err(undecryptable)?;
                    if !plain.is_empty() {
                        return Ok(Some(plain));
                    }
                }
                None => {
                    let last = self.decryptor.take().map(Decryptor::finish);
                    return last.transpose().map_err(undecryptable);
                }
            }
        }
    }
}

#[async_trait]
impl DocumentStore for ObjectFiles {
    async fn begin(&self, file_id: &FileId) -> StoreResult<Box<dyn FileUpload>> {
        let path = self.path(file_id.as_str())?;
        let encryptor = self
            .vault
            .file_encryptor(file_id.as_str())
            .map_err(undecryptable)?;
        let upload = self.store.put_multipart(&path).await.map_err(failed)?;
        Ok(Box::new(ObjectUpload {
            encryptor: Some(encryptor),
            upload: Some(WriteMultipart::new_with_chunk_size(upload, PART)),
        }))
    }

    async fn open(&self, file_id: &FileId) -> StoreResult<Option<Box<dyn FileDownload>>> {
        let path = self.path(file_id.as_str())?;
        match self.store.get(&path).await {
            Ok(found) => Ok(Some(Box::new(ObjectDownload {
                stream: found.into_stream(),
                decryptor: Some(self.vault.file_decryptor(file_id.as_str())),
            }))),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(failed(e)),
        }
    }

    async fn delete(&self, file_id: &FileId) -> StoreResult<()> {
        let path = self.path(file_id.as_str())?;
        match self.store.delete(&path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => {
                tracing::warn!(file.id = %file_id, error = %Report(&e), "stored object could not be removed; the sweeper will retry");
                Err(failed(e))
            }
        }
    }

    /// A completed upload replaces the object at once: readers get the old or the new.
    async fn reseal(&self, file_id: &FileId) -> StoreResult<bool> {
        let path = self.path(file_id.as_str())?;
        let head = match self.store.get_range(&path, 0..FILE_HEAD as u64).await {
            Ok(head) => head,
            Err(object_store::Error::NotFound { .. }) => return Ok(false),
            Err(e) => return Err(failed(e)),
        };
        if !resealable(&self.vault, file_id, &head)? {
            return Ok(false);
        }
        Ok(copy_file(self, self, file_id).await?.is_some())
    }

    /// Finished objects only: an unfinished multipart upload is not an object, and never
    /// listed.
    async fn list(&self) -> StoreResult<Vec<StoredObject>> {
        let prefix = (!self.prefix.as_ref().is_empty()).then_some(&self.prefix);
        let mut listing = self.store.list(prefix);
        let mut objects = Vec::new();
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(failed)?;
            // Only what this store writes: an id right under the prefix. Anything else
            // in a shared bucket is not ours, and the sweeper must never see it.
            let Some(name) = meta.location.filename().filter(|n| is_file_id(n)) else {
                continue;
            };
            if self.path(name).ok().as_ref() != Some(&meta.location) {
                continue;
            }
            let modified = OffsetDateTime::from_unix_timestamp(meta.last_modified.timestamp())
                .unwrap_or(OffsetDateTime::UNIX_EPOCH);
            objects.push(StoredObject {
                file_id: name.into(),
                partial: false,
                modified,
            });
        }
        Ok(objects)
    }
}

/// Whether `name` is a file id as this service makes them (a ULID).
fn is_file_id(name: &str) -> bool {
    name.len() == 26 && name.bytes().all(|b| b.is_ascii_alphanumeric())
}
