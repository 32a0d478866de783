//! `idv merchant ...`: credentials are issued here, on the server's machine, never
//! through the API.

use domain::merchant::{ApiKey, ExposeSecret, KeyAccess, KeyOptions, MerchantId};
use serde_json::json;

use domain::profile::Email;
use domain::services::Initiator;
use domain::user::Password;

use crate::cli::{KeyCommand, MerchantCommand, UserCommand};
use crate::wiring;

pub async fn run(cmd: MerchantCommand) -> anyhow::Result<()> {
    match cmd {
        MerchantCommand::Create {
            name,
            json,
            storage,
        } => {
            let merchants = wiring::merchant_service(&storage)?;
            let (merchant, key) = merchants.create(&name).await?;
            print_key(&key, json, Some(&merchant.name));
        }
        MerchantCommand::List { json, storage } => {
            let merchants = wiring::merchant_service(&storage)?;
            let merchants = merchants.list().await?;
            if json {
                let list: Vec<_> = merchants
                    .iter()
                    .map(|m| json!({"merchant_id": m.id.as_str(), "name": m.name}))
                    .collect();
                println!("{}", serde_json::Value::Array(list));
            } else {
                for m in merchants {
                    println!("{}  {}", m.id.as_str(), m.name);
                }
            }
        }
        MerchantCommand::Key(KeyCommand::Create {
            merchant,
            compat_signature,
            allow_ip,
            read_only,
            json,
            storage,
        }) => {
            let merchants = wiring::merchant_service(&storage)?;
            let options = KeyOptions {
                access: if read_only {
                    KeyAccess::ReadOnly
                } else {
                    KeyAccess::Full
                },
                compat_signature,
                allowed_networks: allow_ip,
            };
            let key = merchants
                .create_key(&MerchantId::new(merchant), options, &Initiator::cli())
                .await?;
            print_key(&key, json, None);
        }
        MerchantCommand::Key(KeyCommand::AllowIp {
            key,
            networks,
            any: _,
            storage,
        }) => {
            let merchants = wiring::merchant_service(&storage)?;
            let shown = if networks.is_empty() {
                "any address".to_owned()
            } else {
                networks
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            merchants
                .set_key_networks(&key.as_str().into(), networks)
                .await?;
            println!("{key} accepted from {shown}");
        }
        MerchantCommand::Key(KeyCommand::Disable { key, storage }) => {
            let merchants = wiring::merchant_service(&storage)?;
            merchants
                .disable_key(&key.as_str().into(), &Initiator::cli())
                .await?;
            println!("disabled {key}");
        }
        MerchantCommand::User(cmd) => user(cmd).await?,
    }
    Ok(())
}

async fn user(cmd: UserCommand) -> anyhow::Result<()> {
    match cmd {
        UserCommand::Create {
            merchant,
            email,
            password_stdin,
            role,
            json,
            storage,
        } => {
            let email = Email::parse(&email).map_err(|e| anyhow::anyhow!("--email {}", e.0))?;
            let password = if password_stdin {
                let mut line = String::new();
                std::io::stdin().read_line(&mut line)?;
                let typed = line.trim_end_matches(['\r', '\n']);
                Some(Password::parse(typed).map_err(|e| anyhow::anyhow!("the password {}", e.0))?)
            } else {
                None
            };
            let users = wiring::user_service(&storage)?;
            let (user, generated) = users
                .create(&MerchantId::new(merchant), email, role, password)
                .await?;
            if json {
                let mut out = json!({
                    "user_id": user.id.to_string(),
                    "merchant_id": user.merchant_id.as_str(),
                    "email": user.email.as_str(),
                    "role": user.role.as_str(),
                });
                if let Some(p) = &generated {
                    out["password"] = json!(p.expose());
                }
                println!("{out}");
            } else {
                println!("user:     {} ({})", user.email.as_str(), user.id);
                println!("role:     {}", user.role.as_str());
                println!("merchant: {}", user.merchant_id.as_str());
                if let Some(p) = &generated {
                    println!("password: {}   (shown once)", p.expose());
                }
            }
        }
        UserCommand::Disable { email, storage } => {
            let email = Email::parse(&email).map_err(|e| anyhow::anyhow!("--email {}", e.0))?;
            let keys = wiring::user_service(&storage)?.disable(&email).await?;
            println!("disabled {}", email.as_str());
            for key in keys {
                println!("disabled {key} (made by {})", email.as_str());
            }
        }
        UserCommand::Totp {
            email,
            json,
            storage,
        } => {
            let email = Email::parse(&email).map_err(|e| anyhow::anyhow!("--email {}", e.0))?;
            let (secret, uri) = wiring::user_service(&storage)?.set_totp(&email).await?;
            if json {
                let out = json!({"email": email.as_str(), "secret": secret.expose(), "uri": uri});
                println!("{out}");
            } else {
                println!("secret: {}", secret.expose());
                println!("uri:    {uri}");
                println!("Add it to an authenticator app now; it is shown only once.");
            }
        }
    }
    Ok(())
}

fn print_key(key: &ApiKey, json: bool, name: Option<&str>) {
    if json {
        let out = json!({
            "merchant_id": key.merchant_id.as_str(),
            "api_key": key.key.as_str(),
            "api_secret": key.secret.expose_secret(),
            "access": key.access.as_str(),
        });
        println!("{out}");
        return;
    }
    if let Some(name) = name {
        println!("merchant:    {name}");
    }
    println!("merchant_id: {}", key.merchant_id.as_str());
    println!("api_key:     {}", key.key);
    println!("api_secret:  {}", key.secret.expose_secret());
    println!("access:      {}", access_shown(key.access));
    println!("The secret is shown only now; store it safely.");
}

/// A key's access as the operator reads it.
fn access_shown(access: KeyAccess) -> &'static str {
    match access {
        KeyAccess::Full => "full",
        KeyAccess::ReadOnly => "read-only (get, read and download operations only)",
    }
}
