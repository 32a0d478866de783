# Les pages du client en français (contrat §14) : les mêmes messages que en.ftl.

language-name = Français
language-choice = Langue

## Dates : « 27 novembre 2026, 10 h 55 UTC »

month-1 = janvier
month-2 = février
month-3 = mars
month-4 = avril
month-5 = mai
month-6 = juin
month-7 = juillet
month-8 = août
month-9 = septembre
month-10 = octobre
month-11 = novembre
month-12 = décembre
date-time = { $day } { $month } { $year }, { $hour } h { $minute } UTC

## La page du questionnaire

page-title = Vérification d’identité
quiz-title = Vérifiez votre identité pour { $merchant }
quiz-heading = Vérifiez votre identité
quiz-intro = Bonjour { $client }. { $merchant } vous demande de remplir les étapes ci-dessous. Ce lien est valable jusqu’au { $expires }.
quiz-progress = { $done } étape(s) terminée(s) sur { $total }
check-heading = Veuillez vérifier
blocked-heading = Cette vérification ne peut pas encore être terminée ici
blocked-text = Elle demande { $steps }, qui nécessite un service non connecté. Vous pouvez tout de même remplir les autres étapes ; { $merchant } vous contactera.
badge-done = Terminé
badge-required = Obligatoire
badge-optional = Facultatif
badge-unavailable = Indisponible
handoff-heading = Continuer sur votre téléphone
handoff-text = Scannez ce code avec l’appareil photo de votre téléphone pour ouvrir cette page sur celui-ci et prendre les photos avec.
handoff-image = Code QR de l’adresse de cette page

## Envois

upload-selfie = Prenez une photo de votre visage, ou choisissez-en une (JPEG ou PNG)
upload-files = Choisissez jusqu’à 4 fichiers (JPEG, PNG ou PDF, 10 Mo chacun)
upload-more = Ajouter d’autres fichiers
upload-one = Prenez une photo, ou choisissez-en une (JPEG, PNG ou PDF, 10 Mo)
upload-side-front = Recto du document
upload-side-back = Verso du document
upload-replace = Envoyez-le de nouveau pour le remplacer
upload-button = Envoyer
upload-received = Reçu.
quality-passed = Votre photo a été reçue et elle est nette.
quality-failed = Votre photo a été reçue, mais elle risque d’être inutilisable. Veuillez la reprendre :
quality-image_too_small = rapprochez-vous, pour que le document remplisse la photo
quality-image_blurry = ne bougez pas et laissez l’appareil faire la mise au point
quality-image_too_dark = placez-vous dans un endroit plus éclairé
quality-image_too_bright = évitez les reflets et la lumière directe sur le document
quality-image_unreadable = le fichier n’a pas pu être lu comme une image ; envoyez une photo JPEG ou PNG

## Guide de prise de vue

camera-open = Utiliser l’appareil photo
camera-shoot = Prendre la photo
camera-close = Fermer l’appareil photo
camera-preview = Ce que voit l’appareil photo
camera-frame = Tenez le document dans le cadre. La photo est prise dès qu’elle est nette et immobile.
camera-face = Regardez l’appareil, le visage dans l’ovale. La photo est prise dès qu’elle est nette et immobile.
camera-still = C’est net : ne bougez plus…
camera-taking = Prise de la photo et envoi…
camera-unavailable = L’appareil photo n’a pas pu être ouvert. Choisissez plutôt un fichier.

## Vos informations

details-heading = Vos informations
address-legend = Adresse
address-line-1 = Adresse (numéro et rue)
address-line-2 = Appartement, bureau (facultatif)
city = Ville
state = État ou province
state-choose = Choisissez un État ou une province
state-other = Hors des États-Unis et du Canada
states-us = États-Unis
states-ca = Canada
postal = Code postal ou ZIP
country = Pays
country-choose = Choisissez un pays
mobile-number = Numéro de mobile (10 chiffres)
email-address = Adresse courriel
date-of-birth = Date de naissance
ssn = Numéro d’assurance sociale / de sécurité sociale (9 chiffres)
details-save = Enregistrer

## Accord, appareil, autres étapes

agreement-text = Je confirme que les informations et les documents que je fournis sont authentiques et m’appartiennent, et j’accepte que { $merchant } les utilise pour vérifier mon identité.
agreement-name = Tapez votre nom complet pour signer
agreement-consent = J’accepte
agreement-sign = Signer
fingerprint-text = Nous enregistrons un résumé à sens unique des réglages de votre navigateur (ni vos fichiers ni votre historique).
fingerprint-button = Vérifier cet appareil
fingerprint-noscript = Cette étape nécessite JavaScript.
provider-text = Cette étape nécessite un service extérieur qui n’est pas connecté.
provider-text-required = Cette étape nécessite un service extérieur qui n’est pas connecté ; cette vérification ne peut donc pas être terminée en ligne.
finish = Terminer la vérification

## Autres pages

not-found-heading = Lien introuvable
not-found-text = Ce lien de vérification n’existe pas ou a été retiré. Demandez-en un nouveau à son expéditeur.
expired-heading = Ce lien a expiré
expired-text = Les liens de vérification sont valables pour une durée limitée. Demandez-en un nouveau à son expéditeur.
thanks-heading = Merci
thanks-text = Votre vérification a été envoyée à { $merchant }. Vous pouvez fermer cette page.

## Ce qui n’a pas été accepté

error-required = Ce champ est obligatoire.
error-invalid = Veuillez vérifier cette valeur.
error-step-required = Veuillez terminer cette étape : { $step }.
error-other = Cela n’a pas pu être accepté. Veuillez vérifier et réessayer.
error-address_line_1 = Indiquez l’adresse (100 caractères au plus, sans balises).
error-address_line_2 = 100 caractères au plus, sans balises.
error-city = Indiquez la ville (45 caractères au plus).
error-state = Choisissez un État ou une province.
error-postal = Indiquez un code postal ou ZIP valide.
error-country = Choisissez un pays.
error-mobile_number = Indiquez 10 chiffres.
error-email_address = Indiquez une adresse courriel comme nom@exemple.com.
error-date_of_birth = Indiquez une vraie date passée.
error-ssn = Indiquez 9 chiffres.
error-full_name = Tapez votre nom complet.
error-consent = Cochez la case pour accepter.
error-file = Envoyez de 1 à 4 fichiers JPEG, PNG ou PDF de 10 Mo au plus chacun.
error-side = Choisissez le recto ou le verso.
error-step = Cette étape ne fait pas partie de cette vérification.
error-fingerprint = La vérification de l’appareil n’a pas pu être enregistrée ; veuillez réessayer.
error-UPLOAD_LIMIT_REACHED = Ce lien ne peut plus recevoir de fichiers. Contactez { $merchant }.
error-REQUEST_TOO_LARGE = C’était trop volumineux : 4 fichiers de 10 Mo chacun au plus.

## Les étapes, par leur nom dans l’API

step-driver_licence_upload = Permis de conduire
step-passport_upload = Passeport
step-other_id_upload = Autre pièce d’identité
step-selfie_upload = Égoportrait
step-bank_statement_upload = Relevé bancaire
step-receipt_upload = Reçu
step-utility_bill_upload = Facture de services publics
step-void_check_upload = Chèque annulé
step-address_submit = Adresse
step-mobile_phone_submit = Téléphone mobile
step-email_address_submit = Adresse courriel
step-date_of_birth_submit = Date de naissance
step-ssn_submit = Numéro d’assurance sociale / de sécurité sociale
step-canadian_bank_validation = Vérification d’un compte bancaire canadien
step-usa_canadian_bank_validation = Vérification d’un compte bancaire américain ou canadien
step-agreement_sign = Accord
step-google_login = Connexion avec Google
step-facebook_login = Connexion avec Facebook
step-device_finger_print = Vérification de l’appareil
step-custom_application = Formulaire de demande
step-canadian_bank_statement = Relevé bancaire canadien
step-utility_statement = Relevé de services publics
