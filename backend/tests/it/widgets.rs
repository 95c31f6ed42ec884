//! A widget site as its owner keeps it and as a visitor reaches it, on both databases:
//! on PostgreSQL the visitor's read goes through the owner function `sou_widget_site`
//! (no user is known yet), which must give the same site as the owner's list.

use agent::widgets::{NewWidgetSite, WidgetTheme};
use backend::{Sou, Store, UserId};

fn new_site() -> NewWidgetSite {
    NewWidgetSite {
        name: "Boutique".into(),
        origins: vec!["https://shop.example".into()],
        tools: vec!["spending_summary".into()],
        datasets: Vec::new(),
        greeting: "Bonjour".into(),
        theme: WidgetTheme::Dark,
        rate_per_hour: 30,
    }
}

async fn reached_as_kept(store: Store, user: UserId, other: UserId) {
    let sou = Sou::new(store, chrono_tz::Europe::Paris);
    let widgets = sou.widgets();
    let made = widgets.create(user, new_site()).await.unwrap();
    let listed = widgets.list(user).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0], made);
    assert!(widgets.list(other).await.unwrap().is_empty());

    // A visitor reaches the same site, with its owner.
    let (owner, site) = widgets.site(&made.id).await.unwrap().unwrap();
    assert_eq!(owner, user);
    assert_eq!(
        (&site.id, &site.name, &site.origins, &site.scope, &site.greeting, site.theme, site.rate_per_hour),
        (&made.id, &made.name, &made.origins, &made.scope, &made.greeting, made.theme, made.rate_per_hour)
    );
    assert!(site.enabled);

    // Off, unknown or revoked: nothing, alike.
    widgets.set_enabled(user, &made.id, false).await.unwrap();
    assert!(widgets.site(&made.id).await.unwrap().is_none());
    widgets.set_enabled(user, &made.id, true).await.unwrap();
    assert!(widgets.site(&made.id).await.unwrap().is_some());
    assert!(widgets.site("AAAAAAAAAAAAAAAAAAAAAA").await.unwrap().is_none());
    assert!(widgets.revoke(other, &made.id).await.is_err());
    widgets.revoke(user, &made.id).await.unwrap();
    assert!(widgets.site(&made.id).await.unwrap().is_none());
}

#[tokio::test]
async fn a_site_is_reached_as_its_owner_keeps_it_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let (store, user) = crate::support::demo_store(dir.path()).await;
    let other = store.ensure_user("other").await.unwrap();
    reached_as_kept(store, user, other).await;
}

#[tokio::test]
async fn a_site_is_reached_as_its_owner_keeps_it_on_postgres() {
    let fresh = backend::testing::FreshDatabase::create().await.expect("PostgreSQL at 127.0.0.1:5432");
    let store = fresh.open_store().await.unwrap();
    let user = store.ensure_user("local").await.unwrap();
    let other = store.ensure_user("other").await.unwrap();
    reached_as_kept(store, user, other).await;
    fresh.drop().await;
}
