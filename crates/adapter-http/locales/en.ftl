# The client's pages in English (contract §14). Every message here exists in fr.ftl and
# es.ftl too (a unit test holds them in step). Placeables are plain text: the pages
# escape them.

language-name = English
language-choice = Language

## Dates: "27 November 2026, 10:55 UTC"

month-1 = January
month-2 = February
month-3 = March
month-4 = April
month-5 = May
month-6 = June
month-7 = July
month-8 = August
month-9 = September
month-10 = October
month-11 = November
month-12 = December
date-time = { $day } { $month } { $year }, { $hour }:{ $minute } UTC

## The quiz page

page-title = Identity verification
quiz-title = Verify your identity for { $merchant }
quiz-heading = Verify your identity
quiz-intro = Hello { $client }. { $merchant } asks you to complete the steps below. This link is valid until { $expires }.
quiz-progress = { $done } of { $total } steps done
check-heading = Please check
blocked-heading = This verification cannot be finished here yet
blocked-text = It requires { $steps }, which needs a service that is not connected. You can still complete the other steps; { $merchant } will contact you.
badge-done = Done
badge-required = Required
badge-optional = Optional
badge-unavailable = Unavailable
handoff-heading = Continue on your phone
handoff-text = Scan this code with your phone's camera to open this page there and take the photos with it.
handoff-image = QR code of this page's address

## Uploads

upload-selfie = Take a photo of your face, or choose one (JPEG or PNG)
upload-files = Choose up to 4 files (JPEG, PNG or PDF, 10 MB each)
upload-more = Add more files
upload-one = Take a photo, or choose one (JPEG, PNG or PDF, 10 MB)
upload-side-front = Front of the document
upload-side-back = Back of the document
upload-replace = Upload again to replace it
upload-button = Upload
upload-received = Received.
quality-passed = Your photo was received and looks clear.
quality-failed = Your photo was received, but it may not be usable. Please take it again:
quality-image_too_small = get closer, so that the document fills the photo
quality-image_blurry = hold still and let the camera focus
quality-image_too_dark = move to a brighter place
quality-image_too_bright = avoid reflections and direct light on the document
quality-image_unreadable = the file could not be read as an image; send a JPEG or PNG photo

## Camera guide

camera-open = Use the camera
camera-shoot = Take the photo
camera-close = Close the camera
camera-preview = What the camera sees
camera-frame = Hold the document inside the frame. The photo is taken when it is sharp and still.
camera-face = Look at the camera with your face inside the oval. The photo is taken when it is sharp and still.
camera-still = Sharp: hold still…
camera-taking = Taking the photo and sending it…
camera-unavailable = The camera could not be opened. Choose a file instead.

## Your details

details-heading = Your details
address-legend = Address
address-line-1 = Street address
address-line-2 = Apartment, suite (optional)
city = City
state = State or province
state-choose = Choose a state or province
state-other = Outside the United States and Canada
states-us = United States
states-ca = Canada
postal = Postal or ZIP code
country = Country
country-choose = Choose a country
mobile-number = Mobile number (10 digits)
email-address = E-mail address
date-of-birth = Date of birth
ssn = Social security / insurance number (9 digits)
details-save = Save details

## Agreement, device, other steps

agreement-text = I confirm that the information and documents I provide are genuine and mine, and I agree that { $merchant } may use them to verify my identity.
agreement-name = Type your full name to sign
agreement-consent = I agree
agreement-sign = Sign
fingerprint-text = We record a one-way summary of your browser's settings (not your files or history).
fingerprint-button = Check this device
fingerprint-noscript = This step needs JavaScript.
provider-text = This step needs an outside service that is not connected.
provider-text-required = This step needs an outside service that is not connected, so this verification cannot be completed online.
finish = Finish verification

## Other pages

not-found-heading = Link not found
not-found-text = This verification link does not exist or was withdrawn. Ask the sender for a new one.
expired-heading = This link has expired
expired-text = Verification links are valid for a limited time. Ask the sender for a new one.
thanks-heading = Thank you
thanks-text = Your verification was sent to { $merchant }. You can close this page.

## What went wrong with a post

error-required = This is required.
error-invalid = Please check this value.
error-step-required = Please complete this step: { $step }.
error-other = This could not be accepted. Please check and try again.
error-address_line_1 = Enter the street address (at most 100 characters, no markup).
error-address_line_2 = At most 100 characters, no markup.
error-city = Enter the city (at most 45 characters).
error-state = Choose a state or province.
error-postal = Enter a valid postal or ZIP code.
error-country = Choose a country.
error-mobile_number = Enter 10 digits.
error-email_address = Enter an e-mail address like name@example.com.
error-date_of_birth = Enter a real date in the past.
error-ssn = Enter 9 digits.
error-full_name = Type your full name.
error-consent = Tick the box to agree.
error-file = Send 1 to 4 JPEG, PNG or PDF files of at most 10 MB each.
error-side = Choose the front or the back.
error-step = This step is not part of this verification.
error-fingerprint = The device check could not be recorded; please try again.
error-UPLOAD_LIMIT_REACHED = This link cannot take more files. Contact { $merchant }.
error-REQUEST_TOO_LARGE = That was too large: at most 4 files of 10 MB each.

## The steps, by their API names

step-driver_licence_upload = Driver's licence
step-passport_upload = Passport
step-other_id_upload = Other ID document
step-selfie_upload = Selfie
step-bank_statement_upload = Bank statement
step-receipt_upload = Receipt
step-utility_bill_upload = Utility bill
step-void_check_upload = Void cheque
step-address_submit = Address
step-mobile_phone_submit = Mobile phone
step-email_address_submit = E-mail address
step-date_of_birth_submit = Date of birth
step-ssn_submit = Social security / insurance number
step-canadian_bank_validation = Canadian bank account check
step-usa_canadian_bank_validation = US/Canadian bank account check
step-agreement_sign = Agreement
step-google_login = Sign in with Google
step-facebook_login = Sign in with Facebook
step-device_finger_print = Device check
step-custom_application = Application form
step-canadian_bank_statement = Canadian bank statement
step-utility_statement = Utility statement
