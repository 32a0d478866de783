DROP TABLE merchant_users;
