# Las páginas del cliente en español (contrato §14): los mismos mensajes que en.ftl.

language-name = Español
language-choice = Idioma

## Fechas: «27 de noviembre de 2026, 10:55 UTC»

month-1 = enero
month-2 = febrero
month-3 = marzo
month-4 = abril
month-5 = mayo
month-6 = junio
month-7 = julio
month-8 = agosto
month-9 = septiembre
month-10 = octubre
month-11 = noviembre
month-12 = diciembre
date-time = { $day } de { $month } de { $year }, { $hour }:{ $minute } UTC

## La página del cuestionario

page-title = Verificación de identidad
quiz-title = Verifique su identidad para { $merchant }
quiz-heading = Verifique su identidad
quiz-intro = Hola, { $client }. { $merchant } le pide completar los pasos siguientes. Este enlace es válido hasta el { $expires }.
quiz-progress = { $done } de { $total } pasos completados
check-heading = Revise lo siguiente
blocked-heading = Esta verificación aún no puede terminarse aquí
blocked-text = Requiere { $steps }, que necesita un servicio no conectado. Puede completar los demás pasos; { $merchant } se pondrá en contacto con usted.
badge-done = Hecho
badge-required = Obligatorio
badge-optional = Opcional
badge-unavailable = No disponible
handoff-heading = Continúe en su teléfono
handoff-text = Escanee este código con la cámara de su teléfono para abrir esta página allí y tomar las fotos con él.
handoff-image = Código QR de la dirección de esta página

## Envíos

upload-selfie = Tome una foto de su cara o elija una (JPEG o PNG)
upload-files = Elija hasta 4 archivos (JPEG, PNG o PDF, 10 MB cada uno)
upload-more = Añadir más archivos
upload-one = Tome una foto o elija una (JPEG, PNG o PDF, 10 MB)
upload-side-front = Anverso del documento
upload-side-back = Reverso del documento
upload-replace = Envíelo de nuevo para reemplazarlo
upload-button = Enviar
upload-received = Recibido.
quality-passed = Su foto se recibió y se ve nítida.
quality-failed = Su foto se recibió, pero puede que no sirva. Tómela de nuevo:
quality-image_too_small = acérquese, para que el documento llene la foto
quality-image_blurry = no se mueva y deje que la cámara enfoque
quality-image_too_dark = busque un lugar con más luz
quality-image_too_bright = evite los reflejos y la luz directa sobre el documento
quality-image_unreadable = el archivo no se pudo leer como imagen; envíe una foto JPEG o PNG

## Guía de la cámara

camera-open = Usar la cámara
camera-shoot = Tomar la foto
camera-close = Cerrar la cámara
camera-preview = Lo que ve la cámara
camera-frame = Mantenga el documento dentro del marco. La foto se toma cuando está nítida y quieta.
camera-face = Mire a la cámara con la cara dentro del óvalo. La foto se toma cuando está nítida y quieta.
camera-still = Nítida: no se mueva…
camera-taking = Tomando la foto y enviándola…
camera-unavailable = No se pudo abrir la cámara. Elija un archivo en su lugar.

## Sus datos

details-heading = Sus datos
address-legend = Dirección
address-line-1 = Calle y número
address-line-2 = Apartamento, oficina (opcional)
city = Ciudad
state = Estado o provincia
state-choose = Elija un estado o una provincia
state-other = Fuera de Estados Unidos y Canadá
states-us = Estados Unidos
states-ca = Canadá
postal = Código postal o ZIP
country = País
country-choose = Elija un país
mobile-number = Número de móvil (10 dígitos)
email-address = Correo electrónico
date-of-birth = Fecha de nacimiento
ssn = Número de seguro social (9 dígitos)
details-save = Guardar datos

## Acuerdo, dispositivo, otros pasos

agreement-text = Confirmo que la información y los documentos que proporciono son auténticos y míos, y acepto que { $merchant } los use para verificar mi identidad.
agreement-name = Escriba su nombre completo para firmar
agreement-consent = Acepto
agreement-sign = Firmar
fingerprint-text = Guardamos un resumen irreversible de la configuración de su navegador (no sus archivos ni su historial).
fingerprint-button = Comprobar este dispositivo
fingerprint-noscript = Este paso necesita JavaScript.
provider-text = Este paso necesita un servicio externo que no está conectado.
provider-text-required = Este paso necesita un servicio externo que no está conectado, así que esta verificación no puede completarse en línea.
finish = Terminar la verificación

## Otras páginas

not-found-heading = Enlace no encontrado
not-found-text = Este enlace de verificación no existe o fue retirado. Pida uno nuevo a quien se lo envió.
expired-heading = Este enlace ha caducado
expired-text = Los enlaces de verificación son válidos por un tiempo limitado. Pida uno nuevo a quien se lo envió.
thanks-heading = Gracias
thanks-text = Su verificación se envió a { $merchant }. Puede cerrar esta página.

## Lo que no se aceptó

error-required = Este dato es obligatorio.
error-invalid = Revise este valor.
error-step-required = Complete este paso: { $step }.
error-other = No se pudo aceptar. Revíselo e inténtelo de nuevo.
error-address_line_1 = Escriba la calle y el número (100 caracteres como máximo, sin etiquetas).
error-address_line_2 = 100 caracteres como máximo, sin etiquetas.
error-city = Escriba la ciudad (45 caracteres como máximo).
error-state = Elija un estado o una provincia.
error-postal = Escriba un código postal o ZIP válido.
error-country = Elija un país.
error-mobile_number = Escriba 10 dígitos.
error-email_address = Escriba un correo como nombre@ejemplo.com.
error-date_of_birth = Escriba una fecha real del pasado.
error-ssn = Escriba 9 dígitos.
error-full_name = Escriba su nombre completo.
error-consent = Marque la casilla para aceptar.
error-file = Envíe de 1 a 4 archivos JPEG, PNG o PDF de 10 MB como máximo cada uno.
error-side = Elija el anverso o el reverso.
error-step = Este paso no forma parte de esta verificación.
error-fingerprint = No se pudo registrar la comprobación del dispositivo; inténtelo de nuevo.
error-UPLOAD_LIMIT_REACHED = Este enlace no admite más archivos. Contacte con { $merchant }.
error-REQUEST_TOO_LARGE = Era demasiado grande: como máximo 4 archivos de 10 MB cada uno.

## Los pasos, por su nombre en la API

step-driver_licence_upload = Licencia de conducir
step-passport_upload = Pasaporte
step-other_id_upload = Otro documento de identidad
step-selfie_upload = Selfi
step-bank_statement_upload = Extracto bancario
step-receipt_upload = Recibo
step-utility_bill_upload = Factura de servicios
step-void_check_upload = Cheque anulado
step-address_submit = Dirección
step-mobile_phone_submit = Teléfono móvil
step-email_address_submit = Correo electrónico
step-date_of_birth_submit = Fecha de nacimiento
step-ssn_submit = Número de seguro social
step-canadian_bank_validation = Comprobación de cuenta bancaria canadiense
step-usa_canadian_bank_validation = Comprobación de cuenta bancaria estadounidense o canadiense
step-agreement_sign = Acuerdo
step-google_login = Iniciar sesión con Google
step-facebook_login = Iniciar sesión con Facebook
step-device_finger_print = Comprobación del dispositivo
step-custom_application = Formulario de solicitud
step-canadian_bank_statement = Extracto bancario canadiense
step-utility_statement = Estado de cuenta de servicios
